/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { Order } from './Order'

export type OrderEventDetails = {
    order: Order
}
