/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The sustainability page status which determines whether it is visible to the public.
 */
export enum SustainabilityPageStatus {
    ENABLED = 'enabled',
    DISABLED = 'disabled',
}
