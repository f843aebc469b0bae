/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * An HTTPS URL
 */
export type Url = string
