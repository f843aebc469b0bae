/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The identifier of a cloud provider.
 */
export enum CloudProvider {
    AWS = 'aws',
    GCP = 'gcp',
    AZURE = 'azure',
    OVH = 'ovh',
    OTHER = 'other',
}
