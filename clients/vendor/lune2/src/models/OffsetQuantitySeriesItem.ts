/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type OffsetQuantitySeriesItem = {
    date: string
    quantity: string
}
