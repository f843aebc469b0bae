/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type EmptyObject = {}
