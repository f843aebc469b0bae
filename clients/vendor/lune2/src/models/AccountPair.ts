/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { Account } from './Account'

export type AccountPair = {
    live: Account
    test: Account
}
