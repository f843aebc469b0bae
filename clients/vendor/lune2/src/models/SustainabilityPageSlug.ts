/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The sustainability page slug. The slug is used to identify the page publicly and should be unique.
 */
export type SustainabilityPageSlug = string
