/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type GeographicCoordinates = {
    /**
     * Latitude
     */
    lat: number
    /**
     * Longitude
     */
    lon: number
}
