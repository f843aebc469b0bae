/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

/**
 * The account's type.
 *
 * See the <a href="#section/Live-and-test-accounts">Live and test accounts section</a> for details.
 *
 */
export enum AccountType {
    LIVE = 'live',
    TEST = 'test',
}
