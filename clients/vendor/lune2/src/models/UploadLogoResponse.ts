/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { Url } from './Url'

export type UploadLogoResponse = {
    /**
     * Uploaded account logo URL
     */
    url?: Url
}
