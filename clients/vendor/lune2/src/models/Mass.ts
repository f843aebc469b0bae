/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { MassUnit } from './MassUnit'

export type Mass = {
    amount: string
    unit: MassUnit
}
