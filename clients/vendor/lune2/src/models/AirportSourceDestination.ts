/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { AirportCode } from './AirportCode'

export type AirportSourceDestination = {
    source: AirportCode
    destination: AirportCode
}
