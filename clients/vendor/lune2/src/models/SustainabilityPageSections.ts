/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { SustainabilityPageSection } from './SustainabilityPageSection'

/**
 * The sustainability page sections that will be displayed in the page. Only a single instance of each section type is allowed and the order is irrelevant.
 */
export type SustainabilityPageSections = Array<SustainabilityPageSection>
