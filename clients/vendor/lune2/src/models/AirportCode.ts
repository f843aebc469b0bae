/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { IATACode } from './IATACode'
import type { ICAOCode } from './ICAOCode'

export type AirportCode = IATACode | ICAOCode
