/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { Errors } from './Errors'
import type { OrderQuoteByQuantity } from './OrderQuoteByQuantity'

export type EstimateQuote = Errors | OrderQuoteByQuantity
