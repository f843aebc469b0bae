/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type OffsetValueSeriesItem = {
    date: string
    value: string
}
