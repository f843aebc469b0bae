/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { OrderBase } from './OrderBase'
import type { OrderByValueProperties } from './OrderByValueProperties'

export type OrderByValue = OrderBase & OrderByValueProperties
