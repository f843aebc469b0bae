/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

export type PaginatedBase = {
    /**
     * Whether or not there are more elements available after this set. If false, this set comprises the end of the array.
     */
    hasMore: boolean
}
