/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * An amount of money (the fractional part is optional)
 */
export type MonetaryAmountValue = string
