/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type QuantityAndValueTimeseries = Array<{
    date: string
    value: string
    /**
     * Quantity of CO2 offsets linked to this activity (tonnes CO2)
     */
    quantity: string
}>
