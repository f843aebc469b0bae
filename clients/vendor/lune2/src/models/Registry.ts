/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The project's Verification Standard Entity name or equivalent organization.
 */
export enum Registry {
    AMERICAN_CARBON_REGISTRY = 'American Carbon Registry',
    VERRA = 'Verra',
    PURO_EARTH = 'Puro.earth',
    GOLD_STANDARD = 'Gold Standard',
    CLIMATE_ACTION_RESERVE = 'Climate Action Reserve',
    WOODLAND_CARBON_CODE = 'Woodland Carbon Code',
    __EMPTY__ = '',
}
