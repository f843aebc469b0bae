/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The sustainability page description format consisting of stat equivalents or a custom description.
 */
export enum SustainabilityPageDescription {
    BY_EQUIVALENT = 'by_equivalent',
    BY_SUPPORTED_GOALS = 'by_supported_goals',
    BY_CUSTOM_DESCRIPTION = 'by_custom_description',
}
