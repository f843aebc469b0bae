/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * An <a href="https://pretty-rfc.herokuapp.com/RFC3339">RFC 3339</a>-formatted timestamp.
 */
export type Timestamp = string
