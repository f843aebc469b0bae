/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { MonetaryAmount } from './MonetaryAmount'

/**
 * Company's own tech infrastructure details
 */
export type CompanyOnPremiseUse = {
    electricityCost: MonetaryAmount
}
