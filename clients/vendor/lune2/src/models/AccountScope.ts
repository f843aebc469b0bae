/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The account's scope.
 *
 * Determines if the resource is a regular account or a client account.
 *
 */
export enum AccountScope {
    ACCOUNT = 'account',
    CLIENT_ACCOUNT = 'client_account',
}
