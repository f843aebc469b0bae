/* istanbul ignore file */
/* tslint:disable */
/* eslint-disable */

import type { WebhookEvent } from './WebhookEvent'

export type WebhookRequest = {
    events: Array<WebhookEvent>
}
