/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The three-letter code of the country where the shipping takes place, if applicable.
 *
 * Providing this value will improve the estimation process. If the shipping spans
 * multiple countries you can either make multiple per-country estimations or choose
 * the country with the largest share of the route.
 *
 */
export type ShippingCountryCode = string
