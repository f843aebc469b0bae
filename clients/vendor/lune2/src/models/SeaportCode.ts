/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type SeaportCode = {
    /**
     * Sea shipping port's UN LOCODE. For a full list of options (https://unece.org/trade/cefact/unlocode-code-list-country-and-territory)
     */
    locode: string
}
