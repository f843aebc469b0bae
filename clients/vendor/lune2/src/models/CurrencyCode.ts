/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * ISO 4217 3 character currency code.
 *
 * Note: Lune does not support all currency codes.
 *
 */
export enum CurrencyCode {
    GBP = 'GBP',
    EUR = 'EUR',
    USD = 'USD',
    SEK = 'SEK',
    CHF = 'CHF',
    PLN = 'PLN',
    DKK = 'DKK',
    NOK = 'NOK',
}
