/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * Maps a bundle's unique identifier to an allocation ratio
 */
export type BundlePercentage = {
    /**
     * The bundle's unique identifier
     */
    bundleId: string
    percentage: number | string
}
