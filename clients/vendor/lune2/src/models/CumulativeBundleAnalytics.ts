/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { AnalyticsByBundle } from './AnalyticsByBundle'

export type CumulativeBundleAnalytics = Array<AnalyticsByBundle>
