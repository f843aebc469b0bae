/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type IATACode = {
    /**
     * Airport IATA code. For a full list of options (https://openflights.org/data.html)
     */
    code: string
}
