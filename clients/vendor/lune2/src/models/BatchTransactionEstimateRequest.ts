/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { TransactionEstimateRequest } from './TransactionEstimateRequest'

export type BatchTransactionEstimateRequest = Array<TransactionEstimateRequest>
