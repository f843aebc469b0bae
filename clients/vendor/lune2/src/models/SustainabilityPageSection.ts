/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The sustainability page section name.
 */
export enum SustainabilityPageSection {
    BUNDLES_BREAKDOWN = 'bundles_breakdown',
    CERTIFICATES = 'certificates',
    UNSDG = 'unsdg',
}
