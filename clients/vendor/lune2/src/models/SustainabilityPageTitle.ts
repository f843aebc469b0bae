/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The sustainability page title stat format.
 */
export enum SustainabilityPageTitle {
    BY_VOLUME = 'by_volume',
    BY_PRICE = 'by_price',
}
