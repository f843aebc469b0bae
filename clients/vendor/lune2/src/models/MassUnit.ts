/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * Unit, `t` for tonne, `kg` for kilogram, `g` for gram
 */
export enum MassUnit {
    G = 'g',
    KG = 'kg',
    T = 't',
}
