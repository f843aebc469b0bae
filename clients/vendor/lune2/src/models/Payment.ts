/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { OrderPayment } from './OrderPayment'

export type Payment = OrderPayment
