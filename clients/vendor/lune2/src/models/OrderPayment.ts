/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { Order } from './Order'

export type OrderPayment = {
    order: Order
    type: 'order'
}
