/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The sustainability page custom description. Only displayed when `description` is set to `by_custom_description`.
 */
export type SustainabilityPageCustomDescription = string | null
