/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { OrderBase } from './OrderBase'
import type { OrderByQuantityProperties } from './OrderByQuantityProperties'

export type OrderByQuantity = OrderBase & OrderByQuantityProperties
