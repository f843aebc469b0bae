/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { Error } from './Error'

/**
 * An error container
 */
export type Errors = {
    /**
     * An array containing errors
     */
    errors: Array<Error>
}
