#!/usr/bin/env node
// Runs the official Lune TypeScript clients (2.2.7 and 3.9.2, built from source in vendor/)
// against a Tonne server, as a customer would, and checks:
//  - every successful answer against the JSON Schema of the method's declared result type,
//    generated from the client's own model types (schemas/<version>.json, `node schemas.js`),
//    after the client's own conversion (camelCased keys; 3.x adds `_meta`, which is removed);
//  - every error: what the client surfaces carries the error code and message
//    (3.x: `errorCode`/`message` read from the body's `error` object;
//     2.2.7: `errors.errors[0].errorCode`/`.message` read from the body's `errors` list).
//
// Environment: TONNE_URL (e.g. http://127.0.0.1:8080, without /v1), TONNE_LIVE_KEY,
// TONNE_TEST_KEY. Options: --json (print the report as JSON instead of lines),
// --only lune2|lune3.
// Prints one line per call and `N passed, M failed`; exits 1 when a call failed.
'use strict'
const path = require('path')
const crypto = require('crypto')
const zlib = require('zlib')
const Ajv = require('ajv')
const addFormats = require('ajv-formats')
const { clientMethods } = require('./methods.js')

const VERSIONS = { lune2: '2.2.7', lune3: '3.9.2' }

// The client methods that map to Tonne's endpoints: every method of 3.9.2, and 2.2.7's
// methods that map to a 3.9.2 one. Methods outside this list (2.2.7's `GET /analytics?start&end`,
// which the 2024 document removed) are reported as out of scope, never called.
const IN_SCOPE = new Set([
    'getAccount', 'createAccountPair', 'listAccounts', 'updateAccount', 'partialUpdateAccount',
    'updateAccountLogo', 'getClientAccount', 'createClientAccount', 'listClientAccounts',
    'updateClientAccount', 'partialUpdateClientAccount', 'updateClientAccountLogo',
    'listBundles', 'getBundle', 'listAllBundlePortfolios', 'updateBundlePortfolio',
    'getBundleSelection', 'updateBundleSelection', 'listProjects', 'getProject', 'getProjectBySlug',
    'createOrderByMass', 'createOrderByValue', 'createOrderByEstimate', 'listOrders', 'getOrder',
    'getOrderCertificate', 'getOrderByIdempotencyKey', 'getOrderQuoteByMass', 'getOrderQuoteByValue',
    'createElectricityEstimate', 'getElectricityEstimate', 'updateElectricityEstimate',
    'createFlightEstimate', 'createPassengerTransportationEstimate', 'getPassengerTransportationEstimate',
    'listAllShippingEstimates', 'createShippingEstimate', 'getShippingEstimate', 'updateShippingEstimate',
    'updateShippingEstimateAnnotations', 'createMultiLegShippingEstimate', 'getMultiLegShippingEstimate',
    'updateMultiLegShippingEstimate', 'updateMultiLegShippingEstimateAnnotations',
    'createMultiLegShippingEstimateByFuel', 'getMultiLegShippingEstimateByFuel',
    'createTransactionEstimate', 'createBatchTransactionEstimate', 'getTransactionEstimate',
    'updateTransactionEstimate', 'getTransactionEstimateByIdempotencyKey',
    'partialUpdateTransactionsEstimateAnnotations', 'createCompanyEstimate', 'getCompanyEstimate',
    'updateCompanyEstimate', 'createIndividualEstimate', 'listAllWebhooks', 'createWebhook',
    'getWebhook', 'updateWebhook', 'deleteWebhook', 'rotateWebhookSecret',
    'listEmissionFactors', 'listAllEmissionFactorRegions', 'createEmissionFactorEstimate',
    'getEmissionFactorEstimate',
    'getCumulativeAnalyticsPerBundle', 'getMetrics', 'getAggregatedAnalyticsByProperty',
    'getEmissionCalculationMetrics', 'createSustainabilityPage', 'updateSustainabilityPage',
    'getSustainabilityPage', 'getPublicSustainabilityPage', 'getPublicSustainabilityPageBySlug',
    'getPublicSustainabilityPageByHandle',
    'createShipmentBatch', 'listShipmentBatches', 'getShipmentBatch', 'listShipments',
    'calculateShipments', 'getShipment',
    // the rest of 3.9.2: transaction documents, multi-match, business analytics, annotations,
    // perimeters, logo deletion, payments, and the webhook receiver's description
    'createTransactionDocumentEstimate', 'createTransactionDocumentEstimateAsync',
    'getTransactionDocumentEstimate', 'partialUpdateTransactionDocumentsEstimateAnnotations',
    'createMultiMatchTransactionEstimate', 'getBusinessEmissionsAnalytics',
    'partialUpdatePassengerTransportationEstimateAnnotations', 'getProjectPerimeter',
    'deleteAccountLogo', 'deleteClientAccountLogo', 'getPaymentByTemporaryId', 'webhookRequest',
])

const args = process.argv.slice(2)
const asJson = args.includes('--json')
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null
const base = (process.env.TONNE_URL || '').replace(/\/+$/, '').replace(/\/v1$/, '')
const liveKey = process.env.TONNE_LIVE_KEY
const testKey = process.env.TONNE_TEST_KEY
if (!base || !liveKey || !testKey) {
    console.error('set TONNE_URL, TONNE_LIVE_KEY and TONNE_TEST_KEY (see run.sh)')
    process.exit(2)
}
// Webhook target: must be accepted by the server (run.sh serves with --webhooks-allow-private).
const hookBase = (process.env.TONNE_WEBHOOK_URL || 'http://127.0.0.1:9/hooks').replace(/\/+$/, '')
const runId = crypto.randomBytes(4).toString('hex')

// A real 8×8 PNG (RGB gradient), made here so the harness ships no binary file.
function png() {
    const crcTable = Array.from({ length: 256 }, (_, n) => {
        let c = n
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
        return c >>> 0
    })
    const crc = (buf) => {
        let c = 0xffffffff
        for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
        return (c ^ 0xffffffff) >>> 0
    }
    const chunk = (type, data) => {
        const len = Buffer.alloc(4)
        len.writeUInt32BE(data.length)
        const td = Buffer.concat([Buffer.from(type), data])
        const c = Buffer.alloc(4)
        c.writeUInt32BE(crc(td))
        return Buffer.concat([len, td, c])
    }
    const w = 8
    const ihdr = Buffer.alloc(13)
    ihdr.writeUInt32BE(w, 0)
    ihdr.writeUInt32BE(w, 4)
    ihdr[8] = 8 // bit depth
    ihdr[9] = 2 // RGB
    const rows = []
    for (let y = 0; y < w; y++) {
        rows.push(0)
        for (let x = 0; x < w; x++) rows.push(x * 32, y * 32, 128)
    }
    return Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        chunk('IHDR', ihdr),
        chunk('IDAT', zlib.deflateSync(Buffer.from(rows))),
        chunk('IEND', Buffer.alloc(0)),
    ])
}

function validatorFor(version) {
    const doc = require(path.join(__dirname, 'schemas', `${version}.json`))
    const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true, verbose: true })
    addFormats(ajv)
    ajv.addSchema(doc, 'models')
    const compiled = new WeakMap()
    // a schema taken out of the document: its `#/definitions/…` refs point into the document
    const compile = (schema) => {
        if (!compiled.has(schema)) {
            const rewritten = JSON.parse(JSON.stringify(schema).replace(/"#\/definitions\//g, '"models#/definitions/'))
            compiled.set(schema, ajv.compile(rewritten))
        }
        return compiled.get(schema)
    }
    const roots = new Map()
    // the problems of `value` as a `type` (a model name or Array<model>); null: type unknown
    return (type, value) => {
        if (!roots.has(type)) {
            const arr = type.match(/^Array<(\w+)>$/)
            const name = arr ? arr[1] : type
            const known = Boolean(doc.definitions[name])
            const ref = { $ref: `#/definitions/${name}` }
            roots.set(type, known ? (arr ? { type: 'array', items: ref } : ref) : null)
        }
        const schema = roots.get(type)
        return schema ? problemsOf(compile, schema, value) : null
    }
}

// Ajv errors, boiled down to "missing a.b" / "a.b: must be …". Where a union (anyOf/oneOf)
// fails, only the branch that comes closest (fewest problems) is reported; list items are
// folded (`data[].x`) and duplicates dropped.
function problemsOf(compile, schema, value, at = '') {
    const validate = compile(schema)
    if (validate(value)) return []
    const errors = validate.errors
    const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    // outermost unions first; errors inside a union's value are replaced by its best branch
    unions.sort((x, y) => x.instancePath.length - y.instancePath.length)
    const handled = []
    const out = []
    for (const u of unions) {
        if (handled.some((p) => u.instancePath === p || u.instancePath.startsWith(p + '/'))) continue
        handled.push(u.instancePath)
        const sub = u.instancePath.split('/').slice(1).reduce((v, k) => (v == null ? v : v[decodeURIComponent(k.replace(/~1/g, '/').replace(/~0/g, '~'))]), value)
        let best = null
        for (const branch of u.schema) {
            const p = problemsOf(compile, branch, sub, at + u.instancePath)
            if (!best || p.length < best.length) best = p
        }
        out.push(...(best || []))
    }
    for (const e of errors) {
        if (e.keyword === 'anyOf' || e.keyword === 'oneOf') continue
        if (handled.some((p) => e.instancePath === p || e.instancePath.startsWith(p + '/'))) continue
        const path = (at + e.instancePath).replace(/^\//, '').replace(/\/\d+(?=\/|$)/g, '[]').replace(/\//g, '.')
        let line
        if (e.keyword === 'required') line = `missing ${path ? path + '.' : ''}${e.params.missingProperty}`
        else if (e.keyword === 'enum') line = `${path || '(root)'}: ${JSON.stringify(e.data)} not one of ${JSON.stringify(e.params.allowedValues)}`
        else if (e.keyword === 'const') line = `${path || '(root)'}: ${JSON.stringify(e.data)} is not ${JSON.stringify(e.params.allowedValue)}`
        else line = `${path || '(root)'}: ${JSON.stringify(e.data)} ${e.message}`
        out.push(line)
    }
    return [...new Set(out)]
}

// The value a method's caller sees, without 3.x's `_meta` (and its array wrapper).
function unwrap(value) {
    if (value && typeof value === 'object' && '_meta' in value) {
        const { _meta, ...rest } = value
        return 'notAnObject' in rest && Object.keys(rest).length === 1 ? rest.notAnObject : rest
    }
    return value
}

// ts-results-es 3 (2.2.7: `ok`/`val`) and 7 (3.x: `isOk()`/`value`/`error`, behind AsyncResult).
async function settle(returned) {
    const r = returned && returned.promise ? await returned.promise : await returned
    const ok = typeof r.isOk === 'function' ? r.isOk() : r.ok
    if (ok) return { ok: true, value: unwrap('value' in r ? r.value : r.val) }
    return { ok: false, error: 'error' in r ? r.error : r.val }
}

// What the server answered (for the report, when the client shows nothing)
function serverSaid(body) {
    const e = body && typeof body === 'object' ? (body.error || (Array.isArray(body.errors) && body.errors[0])) : undefined
    return e ? ` (server sent ${e.errorCode}: ${e.message})` : ''
}

// What the client surfaces of an error: code and message as the client's types expose them.
function surfaced(version, err) {
    if (!err) return { code: undefined, message: undefined }
    if (version === 'lune3') return { code: err.errorCode, message: err.message }
    const first = err.errors && Array.isArray(err.errors.errors) ? err.errors.errors[0] : undefined
    return { code: first && first.errorCode, message: first && first.message }
}

async function runVersion(version) {
    const { LuneClient } = require(version)
    const methods = new Map(clientMethods(path.join(__dirname, 'vendor', version)).map((m) => [m.name, m]))
    const schemaOf = validatorFor(version)
    const results = []
    let lastStatus
    let lastBody
    let lastVersion
    const versionProblems = new Map() // Lune-Version answered: problem -> calls
    const client = (key) => {
        const c = new LuneClient(key, base)
        c.client.interceptors.response.use(
            (r) => {
                lastStatus = r.status
                lastVersion = r.headers['lune-version']
                return r
            },
            (e) => {
                lastStatus = e && e.response ? e.response.status : undefined
                lastBody = e && e.response ? e.response.data : undefined
                lastVersion = e && e.response ? e.response.headers['lune-version'] : undefined
                return Promise.reject(e)
            },
        )
        return c
    }
    const live = client(liveKey)
    const test = client(testKey)
    const called = new Set()
    const v3 = version === 'lune3'

    // One call through the client. `body` is the request body (camelCase, as the client takes
    // it); path parameters come first in `params`; `opts.expect` = {status, code} for a call
    // that must fail; `opts.check(value)` returns extra problems of a successful answer.
    async function call(label, c, name, params, body, opts = {}) {
        const m = methods.get(name)
        const entry = { client: VERSIONS[version], method: name, label, http: m ? `${m.method} ${m.url}` : null }
        if (!m) return null // this version has no such method
        called.add(name)
        const argv = [...params]
        if (body !== undefined) argv.push(m.bodyWrapper ? { [m.bodyWrapper]: body } : body)
        if (opts.options) {
            if (body === undefined && !['GET', 'DELETE'].includes(m.method)) argv.push(undefined)
            argv.push(opts.options)
        }
        lastStatus = undefined
        lastBody = undefined
        let res
        try {
            res = await settle(c[name](...argv))
        } catch (e) {
            entry.status = lastStatus
            entry.ok = false
            entry.problems = [`the client threw: ${e && e.message}`]
            results.push(entry)
            return null
        }
        entry.status = lastStatus
        entry.luneVersion = lastVersion
        // every answer names the API version used (3.x sends `Lune-Version: 2024-08-08`)
        const vp = !lastVersion ? 'no Lune-Version header' : v3 && lastVersion !== '2024-08-08' ? `Lune-Version ${lastVersion}, sent 2024-08-08` : null
        if (vp && lastStatus !== undefined) versionProblems.set(vp, (versionProblems.get(vp) || []).concat(name))
        const problems = []
        if (opts.expect) {
            if (res.ok) problems.push(`expected ${[].concat(opts.expect.status).join(' or ')}${opts.expect.code ? ' ' + opts.expect.code : ''}, got a success`)
            else {
                const s = surfaced(version, res.error)
                entry.errorCode = s.code
                const statuses = [].concat(opts.expect.status)
                if (!statuses.includes(entry.status)) problems.push(`expected status ${statuses.join(' or ')}`)
                if (!s.code) problems.push(`the client shows no error code${serverSaid(lastBody)}`)
                else if (opts.expect.code && s.code !== opts.expect.code) problems.push(`code ${s.code}, expected ${opts.expect.code}`)
                if (!s.message) problems.push('the client shows no error message')
            }
        } else if (!res.ok) {
            const s = surfaced(version, res.error)
            entry.errorCode = s.code
            const shown = s.code && s.message ? `the client shows ${s.code}: ${s.message}` : `the client shows no code/message${serverSaid(lastBody)}`
            problems.push(
                entry.status === 404 || entry.status === 405
                    ? `${entry.status}, route not served (yet); ${shown}`
                    : `unexpected error ${entry.status}; ${shown}`,
            )
        } else {
            entry.value = res.value
            if (m.result === 'Blob') {
                const v = res.value
                const head = Buffer.isBuffer(v) ? v.subarray(0, 4).toString() : typeof v === 'string' ? v.slice(0, 4) : v && v.arrayBuffer ? '%PDF' : ''
                if (head !== '%PDF') problems.push('the certificate is not a PDF')
            } else {
                problems.push(...(schemaOf(m.result, res.value) || []))
            }
            if (opts.check) problems.push(...(opts.check(res.value) || []))
        }
        entry.ok = problems.length === 0
        entry.problems = problems
        results.push(entry)
        return res.ok ? res.value : null
    }
    const idOf = (v) => (v && typeof v === 'object' ? v.id : undefined)
    const tag = `${version}-${runId}`

    // --- accounts --------------------------------------------------------------------
    await call('', live, 'getAccount', [])
    await call('', live, 'listAccounts', [], {})
    const pair = await call('', live, 'createAccountPair', [], { name: `Harness ${tag}`, currency: 'GBP', beneficiary: 'Harness Ltd' })
    const newLive = pair && pair.live ? pair.live.id : undefined
    if (v3) {
        await call('with handle, external_pages_visibility', live, 'createAccountPair', [], {
            name: `Harness handles ${tag}`, currency: 'EUR', handle: `harness-${tag}`, externalPagesVisibility: 'private',
        })
        await call('a handle already taken', live, 'createAccountPair', [], {
            name: `Harness handles again ${tag}`, currency: 'EUR', handle: `harness-${tag}`,
        }, { expect: { status: [400, 409], code: 'handle_not_unique' } })
    }
    if (newLive) {
        await call('', live, 'updateAccount', [newLive], { name: `Harness ${tag} renamed`, beneficiary: 'Harness plc' })
        await call('', live, 'partialUpdateAccount', [newLive], { beneficiary: 'Harness Group' })
        if (v3) await call('handle', live, 'partialUpdateAccount', [newLive], { handle: `harness-p-${tag}` })
        // Both clients put the multipart form in axios' `params` and send an empty
        // `application/x-www-form-urlencoded` body (checked on the wire): the upload can only
        // be refused, readably (the contract lists 400 and 415).
        await call('the client sends no file', live, 'updateAccountLogo', [newLive], { logo: new Blob([png()], { type: 'image/png' }) }, { expect: { status: [400, 415] } })
    }
    await call('test key', test, 'createAccountPair', [], { name: 'Nope', currency: 'GBP' }, { expect: { status: 403, code: 'live_account_required' } })
    await call('bad key', client('tonne_live_' + 'A'.repeat(43)), 'getAccount', [], undefined, { expect: { status: 401, code: 'unauthorised' } })
    if (v3) {
        const odd = client(liveKey)
        odd.config.CALENDAR_VERSION = '2023-13-45' // what a client pinned to a version that does not exist sends
        await call('Lune-Version: 2023-13-45', odd, 'getAccount', [], undefined, { expect: { status: 400, code: 'api_version_invalid' } })
    }
    await call('unknown id', live, 'updateAccount', ['0123456789abcdef0123456789abcdef'], { name: 'X' }, { expect: { status: 404, code: 'not_found' } })

    // --- client accounts ---------------------------------------------------------------
    const ca = await call('', live, 'createClientAccount', [], { name: `Client ${tag}`, currency: 'USD', beneficiary: 'Client Ltd' })
    if (v3) {
        await call('with handle, idempotency_key', live, 'createClientAccount', [], {
            name: `Client idem ${tag}`, currency: 'USD', handle: `client-${tag}`, idempotencyKey: `ca-${tag}`,
        })
        await call('repeated idempotency_key', live, 'createClientAccount', [], {
            name: `Client idem again ${tag}`, currency: 'USD', idempotencyKey: `ca-${tag}`,
        }, { expect: { status: 409 } })
    }
    await call('', live, 'listClientAccounts', [], {})
    const caId = idOf(ca)
    if (caId) {
        await call('', live, 'updateClientAccount', [caId], { name: `Client ${tag} renamed`, beneficiary: 'Client plc' })
        await call('', live, 'partialUpdateClientAccount', [caId], { beneficiary: 'Client Group' })
        await call('the client sends no file', live, 'updateClientAccountLogo', [caId], { logo: new Blob([png()], { type: 'image/png' }) }, { expect: { status: [400, 415] } })
        await call('as the client account', live, 'getClientAccount', [], undefined, { options: { accountId: caId } })
    }
    await call('invalid body', live, 'createClientAccount', [], { name: '', currency: 'XXX' }, { expect: { status: 400, code: 'validation_error' } })

    // --- catalogue -----------------------------------------------------------------------
    const bundles = await call('', live, 'listBundles', [], {})
    const bundle = bundles && bundles.data && bundles.data[0]
    if (bundle) await call('', live, 'getBundle', [bundle.id])
    await call('unknown id', live, 'getBundle', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404, code: 'not_found' } })
    const projects = await call('', live, 'listProjects', [], {})
    const project = projects && projects.data && projects.data[0]
    if (project) {
        await call('', live, 'getProject', [project.id])
        await call('', live, 'getProjectBySlug', [project.slug])
    }
    const portfolios = await call('', live, 'listAllBundlePortfolios', [])
    const portfolio = Array.isArray(portfolios) ? portfolios[0] : undefined
    if (portfolio) await call('', live, 'updateBundlePortfolio', [], { bundlePortfolioId: portfolio.id })
    await call('', live, 'getBundleSelection', [])
    if (bundle) {
        await call('', live, 'updateBundleSelection', [], [{ bundleId: bundle.id, percentage: 100 }])
        await call('ratios not adding up to 100', live, 'updateBundleSelection', [], [{ bundleId: bundle.id, percentage: 60 }], { expect: { status: 400, code: 'bundle_selection_ratios_invalid' } })
    }

    // --- estimates -----------------------------------------------------------------------
    const sea = { source: { locode: 'CNSHA' }, destination: { locode: 'NLRTM' } }
    const el = await call('', live, 'createElectricityEstimate', [], { consumption: { amount: '1000', unit: 'kWh' }, countryCode: 'GBR', name: 'office' })
    if (idOf(el)) {
        await call('', live, 'getElectricityEstimate', [el.id])
        await call('', live, 'updateElectricityEstimate', [el.id], { consumption: { amount: '1200', unit: 'kWh' }, countryCode: 'GBR', name: 'office' })
    }
    await call('', live, 'createFlightEstimate', [], { route: { source: { code: 'LHR' }, destination: { code: 'JFK' } }, cabinClass: 'economy', passengers: 2 })
    await call('unknown airport', live, 'createFlightEstimate', [], { route: { source: { code: 'LHR' }, destination: { code: 'QQQ' } } }, { expect: { status: 400, code: 'airport_invalid' } })
    const pt = await call('', live, 'createPassengerTransportationEstimate', [], {
        passengers: 2,
        legs: [
            { route: { amount: '100', unit: 'km' }, vehicleType: 'car_supermini' },
            { route: { source: { lat: 48.8566, lon: 2.3522 }, destination: { lat: 45.764, lon: 4.8357 } }, railType: 'national_rail' },
        ],
    })
    if (idOf(pt)) await call('', live, 'getPassengerTransportationEstimate', [pt.id])
    // --- emission factors (3.x): the catalogue, and an estimate from a chosen factor ----------
    const factors = await call('national rail, DESNZ only', live, 'listEmissionFactors', [], { name: 'national rail', source: ['beis'], limit: '5' }, {
        check: (v) => (v && v.data && v.data[0] && v.data[0].id === 'desnz-2025.RAIL_NATIONAL' ? [] : [`first factor: ${v && v.data && v.data[0] && v.data[0].id}`]),
    })
    await call('', live, 'listAllEmissionFactorRegions', [])
    if (factors && factors.data && factors.data[0]) {
        const ef = await call('', live, 'createEmissionFactorEstimate', [], { emissionFactorId: factors.data[0].id, activity: { value: '1200', unit: 'person*km' }, metadata: { trip: 'Leeds' } })
        if (idOf(ef)) await call('', live, 'getEmissionFactorEstimate', [ef.id])
        await call('a unit of another dimension', live, 'createEmissionFactorEstimate', [], { emissionFactorId: factors.data[0].id, activity: { value: '1', unit: 'kWh' } }, { expect: { status: 400, code: 'emission_factor_unit_mismatch' } })
        await call('an unknown factor', live, 'createEmissionFactorEstimate', [], { emissionFactorId: 'desnz-1999.NOPE', activity: { value: '1', unit: 'km' } }, { expect: { status: 400, code: 'emission_factor_id_invalid' } })
    }
    const shipBody = { shipment: { containers: '2', cargoType: 'average' }, route: sea, method: { vesselType: 'container_ship' } }
    const sh = await call('', live, 'createShippingEstimate', [], shipBody)
    if (v3) {
        await call('with idempotency_key, metadata, shipped_at, is_shipment', live, 'createShippingEstimate', [], {
            ...shipBody, idempotencyKey: `ship-${tag}`, metadata: { ref: 'PO-1' }, shippedAt: '2026-11-20T10:00:00Z', isShipment: true,
        })
    }
    if (idOf(sh)) {
        await call('', live, 'getShippingEstimate', [sh.id])
        if (v3) {
            await call('estimate_mass_unit=kg', live, 'getShippingEstimate', [sh.id], { estimateMassUnit: 'kg' }, {
                check: (v) => (v && v.mass && v.mass.unit === 'kg' ? [] : [`estimate_mass_unit ignored: mass.unit is ${v && v.mass && v.mass.unit}`]),
            })
        }
        await call('', live, 'updateShippingEstimate', [sh.id], { shipment: { containers: '3', cargoType: 'average' }, route: sea, method: { vesselType: 'container_ship' } })
        await call('', live, 'updateShippingEstimateAnnotations', [sh.id], { metadata: { ref: 'PO-2' } })
    }
    await call('', live, 'listAllShippingEstimates', [], {})
    const ml = await call('', live, 'createMultiLegShippingEstimate', [], {
        shipment: { mass: { amount: '10', unit: 't' } },
        legs: [
            { route: { amount: '106.9614', unit: 'km' }, method: 'diesel_truck' },
            { route: sea, method: { vesselImoNumber: '9745225' } },
            { route: { source: { code: 'AMS' }, destination: { code: 'FRA' } }, method: 'cargo_plane' },
        ],
    })
    if (idOf(ml)) {
        await call('', live, 'getMultiLegShippingEstimate', [ml.id])
        await call('', live, 'updateMultiLegShippingEstimate', [ml.id], {
            shipment: { mass: { amount: '12', unit: 't' } },
            legs: [{ route: { amount: '200', unit: 'km' }, method: 'diesel_truck' }],
        })
        await call('', live, 'updateMultiLegShippingEstimateAnnotations', [ml.id], { metadata: { ref: 'ML-1' } })
    }
    if (v3) {
        // 3.9.2's road and inferred-vessel methods, and its multi-leg estimate by fuel
        await call('road method, load and empty runs', live, 'createShippingEstimate', [], {
            shipment: { mass: { amount: '10', unit: 't' } },
            route: { amount: '100', unit: 'km' },
            method: { vehicleType: 'truck_articulated_40t', fuel: 'diesel', loadFactor: 0.8, emptyRunsFactor: 0.25 },
        }, {
            check: (v) => (v && v.methodologyDetails && v.methodologyDetails.energyConsumption ? [] : ['no road methodology_details']),
        })
        await call('inferred vessel (average container ship)', live, 'createMultiLegShippingEstimate', [], {
            shipment: { containers: '2' },
            legs: [
                { route: sea, method: { vesselInference: { departureOn: '2026-11-01', arrivalOn: '2026-12-10', carrierName: 'MAERSK' } } },
                { route: { amount: '80', unit: 'km' }, method: { vehicleType: 'truck', fuel: 'diesel' } },
            ],
        })
        const byFuel = await call('', live, 'createMultiLegShippingEstimateByFuel', [], {
            legs: [{ fuel: 'diesel', fuelConsumedLitres: 1000 }, { fuel: '95_diesel_5_biodiesel', fuelConsumedLitres: 250 }],
            isShipment: true,
        }, {
            check: (v) => (v && v.mass && v.mass.amount === '4.073012' ? [] : [`mass ${v && v.mass && v.mass.amount}, expected 4.073012 t (DESNZ 2025 by hand: 3,285.640 + 634.212 + 153.160 kg)`]),
        })
        if (idOf(byFuel)) await call('', live, 'getMultiLegShippingEstimateByFuel', [byFuel.id])
        await call('an unknown fuel', live, 'createMultiLegShippingEstimateByFuel', [], { legs: [{ fuel: 'kerosene', fuelConsumedLitres: 1 }] }, { expect: { status: 400, code: 'validation_error' } })
    }
    // Each client spells the search term as its own types do: 2.2.7 `fuzzySearchTerm`, 3.x `searchTerm`.
    const merchant = v3 ? { countryCode: 'GBR', searchTerm: 'Bananas' } : { countryCode: 'GBR', fuzzySearchTerm: 'Bananas' }
    const txBody = { value: { value: '100', currency: 'EUR' }, merchant, diet: 'vegan' }
    const tx = await call('', live, 'createTransactionEstimate', [], txBody)
    const txKey = `tx-${tag}`
    if (v3) {
        await call('merchant.search_term, idempotency_key, metadata', live, 'createTransactionEstimate', [], {
            value: { value: '42.50', currency: 'GBP' }, merchant: { countryCode: 'GBR', searchTerm: 'Supermarket groceries' }, idempotencyKey: txKey, metadata: { ref: 'INV-1' },
        })
        await call('', live, 'getTransactionEstimateByIdempotencyKey', [txKey])
        await call('repeated idempotency_key', live, 'createTransactionEstimate', [], {
            value: { value: '42.50', currency: 'GBP' }, merchant: { countryCode: 'GBR', searchTerm: 'Supermarket groceries' }, idempotencyKey: txKey,
        }, { expect: { status: 409, code: 'estimate_idempotency_already_exists' } })
    }
    await call('', live, 'createBatchTransactionEstimate', [], [txBody, { value: { value: '20', currency: 'GBP' }, merchant: { countryCode: 'FRA', fuzzySearchTerm: 'SNCF' } }])
    if (idOf(tx)) {
        await call('', live, 'getTransactionEstimate', [tx.id])
        await call('', live, 'updateTransactionEstimate', [tx.id], { ...txBody, value: { value: '120', currency: 'EUR' } })
        await call('', live, 'partialUpdateTransactionsEstimateAnnotations', [tx.id], { metadata: { ref: 'TX-1' } })
    }
    await call('unknown id', live, 'getTransactionEstimate', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404, code: 'estimate_not_found' } })
    if (v3) {
        // several candidate estimates for one ambiguous transaction, ranked
        await call('limit 3', live, 'createMultiMatchTransactionEstimate', [], {
            value: { value: '100', currency: 'GBP' }, merchant: { countryCode: 'GBR', searchTerm: 'Train tickets and hotel' }, limit: 3,
        }, {
            check: (v) => {
                const n = v && Array.isArray(v.estimates) ? v.estimates.length : -1
                return n >= 1 && n <= 3 ? [] : [`${n} candidates, expected 1 to 3`]
            },
        })
        // a receipt sent as JSON: line items, each estimated and explained
        const receipt = {
            unstructuredData: {
                keyValue: {
                    merchant: 'Hotel Europa', country: 'DEU', currency: 'EUR', total: '230.00', date: '2026-11-20',
                    line_items: [
                        { description: 'Hotel room, 2 nights', amount: '180.00' },
                        { description: 'Breakfast', amount: '30.00' },
                        { description: 'Taxi to the airport', amount: '20.00' },
                    ],
                },
            },
            isTransactionDocument: true, transactionDocumentProcessedAt: '2026-11-20T10:00:00Z', metadata: { ref: 'RCPT-1' },
        }
        const doc = await call('a receipt with line items', live, 'createTransactionDocumentEstimate', [], receipt, {
            check: (v) => (v && Array.isArray(v.lineItems) && v.lineItems.length >= 1 && v.fallback === null ? [] : ['expected line items and a null fallback']),
        })
        await call('no line, a total: the fallback', live, 'createTransactionDocumentEstimate', [], {
            unstructuredData: { keyValue: { supplier: 'Acme Consulting Ltd', country: 'GBR', currency: 'GBP', total: '1200.00' } },
        }, {
            check: (v) => (v && v.lineItems === null && v.fallback ? [] : ['expected the fallback and null line items']),
        })
        await call('nothing Tonne can read', live, 'createTransactionDocumentEstimate', [], { unstructuredData: { keyValue: { note: 'hello' } } }, { expect: { status: [400, 422] } })
        await call('', live, 'createTransactionDocumentEstimateAsync', [], { ...receipt, correlationId: `corr-${tag}` })
        if (idOf(doc)) {
            await call('', live, 'getTransactionDocumentEstimate', [doc.id])
            await call('', live, 'partialUpdateTransactionDocumentsEstimateAnnotations', [doc.id], { isTransactionDocument: false, transactionDocumentProcessedAt: '2026-11-21T08:00:00Z' }, {
                check: (v) => (v && v.isTransactionDocument === false ? [] : ['is_transaction_document not updated']),
            })
        }
        await call('unknown id', live, 'getTransactionDocumentEstimate', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404 } })
        if (idOf(pt)) {
            await call('', live, 'partialUpdatePassengerTransportationEstimateAnnotations', [pt.id], { isPassengerTransportation: true, passengerTransportationTravelledAt: '2026-11-19T07:30:00Z' })
        }
    }
    const companyBody = {
        employees: 50, remoteEmployeesPercentage: 20, officeArea: { amount: '800', unit: 'square_meters' }, countryCode: 'GBR',
        electricityConsumption: 60000, greenElectricityUsed: false, gasConsumption: 5000, companyCars: 3,
        averageCarDistanceTravelled: { amount: '15000', unit: 'km' }, employeesUsingPublicTransport: 30, shortFlights: 40,
        mediumFlights: 10, longFlights: 5, firstOrBusinessClassPercentage: 10, foodAndDrinksExpenses: { value: '20000', currency: 'GBP' },
        vegetarianAndVeganPercentage: 30, electronicDeviceExpenses: { value: '30000', currency: 'GBP' }, garbage: 4000,
        recycledGarbagePercentage: 50,
    }
    const co = await call('', live, 'createCompanyEstimate', [], companyBody)
    if (idOf(co)) {
        await call('', live, 'getCompanyEstimate', [co.id])
        await call('', live, 'updateCompanyEstimate', [co.id], { ...companyBody, employees: 60 })
    }
    const m = (v) => ({ value: v, currency: 'EUR' })
    await call('', live, 'createIndividualEstimate', [], {
        countryCode: 'FRA', carUse: true, shortFlights: 2, mediumFlights: 1, longFlights: 1, daysPerWeekUsingPublicTransport: 3,
        diet: 'medium_meat_eater', monthlyGroceryExpenses: m('300'), monthlyRestaurantExpenses: m('100'), monthlyClothingExpenses: m('50'),
        monthlyFurnitureAppliancesExpenses: m('30'), monthlyOtherExpenses: m('200'), electricityConsumption: 2500, greenElectricityUsed: false,
        gasConsumption: 800,
    })

    // --- orders (test key: test orders complete by themselves) -----------------------------
    await call('', test, 'getOrderQuoteByMass', [], { mass: { amount: '1', unit: 't' } })
    await call('', test, 'getOrderQuoteByValue', [], { value: '100' })
    const orderKey = `order-${tag}`
    const om = await call('', test, 'createOrderByMass', [], { mass: { amount: '0.5', unit: 't' }, idempotencyKey: orderKey, metadata: { ref: 'PO-7' } })
    await call('repeated idempotency_key', test, 'createOrderByMass', [], { mass: { amount: '0.5', unit: 't' }, idempotencyKey: orderKey }, { expect: { status: 409, code: 'order_idempotency_already_exists' } })
    await call('', test, 'createOrderByValue', [], { value: '50' })
    const est = await call('for an order', test, 'createElectricityEstimate', [], { consumption: { amount: '2', unit: 'MWh' }, countryCode: 'GBR' })
    if (idOf(est)) await call('', test, 'createOrderByEstimate', [], { estimateId: est.id })
    await call('invalid body', test, 'createOrderByMass', [], { mass: { amount: '-1', unit: 't' } }, { expect: { status: 400, code: 'order_quantity_invalid' } })
    await call('', test, 'listOrders', [], {})
    await call('', test, 'getOrderByIdempotencyKey', [orderKey])
    await call('unknown id', test, 'getOrder', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404, code: 'not_found' } })
    if (idOf(om)) {
        // wait (≤ 20 s) for the test order to complete, then read it and its certificate
        let order
        for (let i = 0; i < 40; i++) {
            const r = await settle(test.getOrder(om.id))
            order = r.ok ? r.value : undefined
            if (!order || order.status === 'complete') break
            await new Promise((ok) => setTimeout(ok, 500))
        }
        await call(order && order.status === 'complete' ? 'complete' : 'not complete after 20 s', test, 'getOrder', [om.id])
        await call('', test, 'getOrderCertificate', [om.id])
    }

    // --- webhooks ------------------------------------------------------------------------
    const wh = await call('', live, 'createWebhook', [], { url: `${hookBase}/${tag}` })
    await call('', live, 'listAllWebhooks', [], {})
    if (idOf(wh)) {
        await call('', live, 'getWebhook', [wh.id])
        await call('', live, 'updateWebhook', [wh.id], { url: `${hookBase}/${tag}/v2`, enabled: true })
        await call('', live, 'rotateWebhookSecret', [wh.id])
        await call('', live, 'deleteWebhook', [wh.id])
    }
    await call('invalid url', live, 'createWebhook', [], { url: 'not a url' }, { expect: { status: 400, code: 'validation_error' } })

    // --- analytics and sustainability pages ----------------------------------------------
    const range = { from: '2026-01-01', through: '2026-01-31' }
    await call('', live, 'getCumulativeAnalyticsPerBundle', [], range)
    await call('', live, 'getMetrics', [], v3 ? range : undefined)
    await call('', live, 'getAggregatedAnalyticsByProperty', [], range)
    await call('by month, all accounts', live, 'getEmissionCalculationMetrics', [], { ...range, interval: 'month', allAccounts: true })
    await call('reversed range', live, 'getCumulativeAnalyticsPerBundle', [], { from: '2026-02-01', through: '2026-01-01' }, { expect: { status: 400, code: 'time_range_invalid' } })
    if (newLive) {
        const as = { options: { accountId: newLive } }
        const slug = `harness-${tag}`
        await call('none yet', live, 'getSustainabilityPage', [], undefined, { ...as, expect: { status: 404, code: 'not_found' } })
        const page = { status: 'enabled', slug, title: 'by_volume', description: 'by_custom_description', customDescription: 'Offset <b>in full</b>.', sections: ['bundles_breakdown', 'certificates'] }
        await call('', live, 'createSustainabilityPage', [], page, as)
        await call('a second page', live, 'createSustainabilityPage', [], page, { ...as, expect: { status: 409, code: 'sustainability_page_exists' } })
        await call('', live, 'getSustainabilityPage', [], undefined, as)
        await call('', live, 'updateSustainabilityPage', [], { ...page, title: 'by_price', sections: ['unsdg'] }, as)
        const publicRead = v3 ? 'getPublicSustainabilityPageBySlug' : 'getPublicSustainabilityPage'
        await call('hidden account', live, publicRead, ['live', slug], undefined, { expect: { status: 404, code: 'not_found' } })
        if (v3) {
            await call('external pages public', live, 'partialUpdateAccount', [newLive], { externalPagesVisibility: 'public' })
            await call('', live, publicRead, ['live', slug])
            const me = await settle(live.getAccount({ accountId: newLive }))
            const org = me.ok ? me.value.organisationId : undefined
            if (org) await call('', live, 'getPublicSustainabilityPageByHandle', [org, 'live', `harness-p-${tag}`])
        }
    }

    if (v3) {
        await call('', live, 'getBusinessEmissionsAnalytics', [], { from: '2026-01-01', through: '2026-12-31' }, {
            check: (v) => (v && v.numberOfEstimates >= 1 ? [] : [`number_of_estimates ${v && v.numberOfEstimates}, expected the annotated estimates`]),
        })
        await call('reversed range', live, 'getBusinessEmissionsAnalytics', [], { from: '2026-02-01', through: '2026-01-01' }, { expect: { status: 400, code: 'time_range_invalid' } })
        if (newLive) await call('', live, 'deleteAccountLogo', [newLive])
        if (caId) await call('', live, 'deleteClientAccountLogo', [caId])
        await call('unknown id', live, 'deleteAccountLogo', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404, code: 'not_found' } })
        // the demo catalogue's projects have no published boundary: the contract's not-found
        if (project) await call('a project without a boundary', live, 'getProjectPerimeter', [project.id], undefined, { expect: { status: 404, code: 'not_found' } })
        await call('unknown project', live, 'getProjectPerimeter', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404, code: 'not_found' } })
    }

    await call('unknown temporary id', live, 'getPaymentByTemporaryId', [crypto.randomUUID()], undefined, { expect: { status: 404, code: 'not_found' } })
    await call('not a uuid', live, 'getPaymentByTemporaryId', [`tmp-${tag}`], undefined, { expect: { status: 400, code: 'validation_error' } })
    {
        const event = {
            apiVersion: 'v1', accountId: 'acc', eventId: `ev-${tag}`, eventType: 'allocation.new', sequence: '2026-11-27 01:00:00.000001',
            data: { allocation: { id: 'al1', orderId: 'or1', projectId: 'pr1', quantity: '0.5', status: 'new', createdAt: '2026-11-27T01:00:00Z' } },
        }
        await call('an allocation event', live, 'webhookRequest', [], { events: [event] })
        await call('an unknown event type', live, 'webhookRequest', [], { events: [{ ...event, eventType: 'order.exploded' }] }, { expect: { status: 400, code: 'validation_error' } })
    }

    // --- shipments (3.9.2) -------------------------------------------------------------------
    if (v3) {
        // rows as the client takes them (camelCase; it sends snake_case)
        const row = (ref, vehicleType) => ({
            shipmentId: ref,
            targetInternalId: `carrier-${tag}`,
            targetInternalName: 'Harness Carrier',
            incoterm: 'fob',
            legs: [
                { carriage: 'pre', method: { vehicleType, fuel: 'diesel' }, distance: { amount: '40', unit: 'km' },
                  load: { mass: { amount: '8', unit: 't' } }, dates: { atd: '2026-02-01' } },
                { carriage: 'main', method: { vesselType: 'container_ship' }, origin: { locode: 'CNSHA' }, destination: { locode: 'NLRTM' } },
                { carriage: 'on', method: { trainType: 'electric_freight_train' }, distance: { amount: '250', unit: 'km' } },
            ],
        })
        const idem = `ships-${tag}`
        const upload = await call('a good and a bad row', live, 'createShipmentBatch', [], {
            shipments: [row(`H-${tag}`, 'truck'), row(`B-${tag}`, 'hovercraft')], idempotencyKey: idem, calculateEmissions: true,
        })
        await call('the same idempotency_key', live, 'createShipmentBatch', [], { shipments: [row(`H2-${tag}`, 'truck')], idempotencyKey: idem },
            { expect: { status: 409, code: 'shipment_batch_idempotency_already_exists' } })
        await call('no rows', live, 'createShipmentBatch', [], { shipments: [] }, { expect: { status: 400, code: 'validation_error' } })
        const batchId = idOf(upload)
        let shipmentId
        if (batchId) {
            // the batch is processed in the background: wait for it, then read it through the client
            for (let i = 0; i < 200; i++) {
                const b = await settle(live.getShipmentBatch(batchId))
                if (b.ok && b.value.status === 'processed') break
                await new Promise((r) => setTimeout(r, 100))
            }
            const batch = await call('processed', live, 'getShipmentBatch', [batchId], undefined, {
                check: (b) => {
                    const r = b.results || []
                    const bad = r.find((x) => x.rowIndex === 1)
                    return [
                        ...(b.successCount === 1 && b.failedCount === 1 ? [] : [`counts ${b.successCount}/${b.failedCount}, expected 1/1`]),
                        ...(bad && String(bad.error).startsWith('legs[0].method.vehicle_type') ? [] : [`row 1's error does not name legs[0].method.vehicle_type: ${bad && bad.error}`]),
                    ]
                },
            })
            const ok = batch && (batch.results || []).find((x) => x.status === 'success')
            shipmentId = ok ? ok.shipmentId : undefined
            await call('unknown id', live, 'getShipmentBatch', ['0123456789abcdef0123456789abcdef'], undefined, { expect: { status: 404, code: 'not_found' } })
        }
        await call('', live, 'listShipmentBatches', [], { limit: '5', source: ['api'] })
        await call('filters, totals', live, 'listShipments', [], { mainCarriageMot: ['sea', 'rail'], preCarriageMot: ['road'], search: `H-${tag}`, includeTotals: true }, {
            check: (p) => (p.total && p.total.all >= 1 && (p.data || []).length >= 1 ? [] : [`the shipment was not found: ${JSON.stringify(p.total)}`]),
        })
        await call('no match', live, 'listShipments', [], { mainCarriageMot: ['air'], shipmentDateFrom: '2030-01-01' }, {
            check: (p) => ((p.data || []).length === 0 && p.total === null ? [] : ['expected no shipment and a null total']),
        })
        await call('bad mode', live, 'listShipments', [], { mainCarriageMot: ['boat'] }, { expect: { status: 400, code: 'validation_error' } })
        if (shipmentId) {
            await call('', live, 'getShipment', [shipmentId], undefined, {
                check: (s) => {
                    const legs = s.legs || []
                    const sum = legs.reduce((a, l) => a + Number(l.emissions ? l.emissions.totalEmissions : NaN), 0)
                    return [
                        ...(s.emissionsSource === 'lune' ? [] : [`emissions_source ${s.emissionsSource}`]),
                        ...(legs.length === 3 ? [] : [`${legs.length} legs`]),
                        ...(Math.abs(sum - Number(s.totalEmissions)) < 0.01 ? [] : [`legs add up to ${sum}, total ${s.totalEmissions}`]),
                    ]
                },
            })
            await call('test key', test, 'getShipment', [shipmentId], undefined, { expect: { status: 404, code: 'not_found' } })
        }
        if (batchId) {
            await call('', live, 'calculateShipments', [], { shipmentBatchId: [batchId] }, {
                check: (r) => (Array.isArray(r.calculationBatchIds) && r.calculationBatchIds.length === 1 ? [] : ['expected one calculation batch id']),
            })
        }
        await call('bad date', live, 'calculateShipments', [], { shipmentDateFrom: 'yesterday' }, { expect: { status: 400, code: 'validation_error' } })
    }

    results.push({
        client: VERSIONS[version],
        method: '(every answer)',
        label: 'Lune-Version header',
        http: null,
        ok: versionProblems.size === 0,
        problems: [...versionProblems].map(([p, calls]) => `${p} on ${calls.length} calls (${[...new Set(calls)].slice(0, 5).join(', ')}${calls.length > 5 ? ', …' : ''})`),
    })
    const notCalled = [...methods.keys()].filter((n) => IN_SCOPE.has(n) && !called.has(n))
    for (const n of notCalled) {
        results.push({ client: VERSIONS[version], method: n, label: 'not reached', http: `${methods.get(n).method} ${methods.get(n).url}`, ok: false, problems: ['not called: a call it depends on failed'] })
    }
    const outOfScope = [...methods.keys()].filter((n) => !IN_SCOPE.has(n))
    return { results, outOfScope }
}

;(async () => {
    const report = { base, clients: {}, results: [] }
    for (const v of Object.keys(VERSIONS)) {
        if (only && only !== v) continue
        const { results, outOfScope } = await runVersion(v)
        report.clients[VERSIONS[v]] = { outOfScope }
        report.results.push(...results)
    }
    const passed = report.results.filter((r) => r.ok).length
    const failed = report.results.length - passed
    report.passed = passed
    report.failed = failed
    if (asJson) {
        console.log(JSON.stringify(report, (k, v) => (k === 'value' ? undefined : v), 1))
    } else {
        for (const r of report.results) {
            const what = `${r.method}${r.label ? ` (${r.label})` : ''}`
            const status = r.status === undefined ? '---' : r.status
            const detail = r.ok ? 'OK' : `FAIL ${r.problems.join('; ')}`
            console.log(`${r.client.padEnd(5)} ${what.padEnd(70)} ${String(status).padEnd(3)} ${detail}`)
        }
        for (const ver of Object.keys(report.clients)) {
            const mine = report.results.filter((r) => r.client === ver && r.http)
            const methods = [...new Set(mine.map((r) => r.method))]
            const good = methods.filter((m) => mine.every((r) => r.method !== m || r.ok))
            console.log(`${ver}: ${good.length} of ${methods.length} methods pass every call`)
        }
        for (const [ver, { outOfScope }] of Object.entries(report.clients)) {
            console.log(`${ver}: ${outOfScope.length} methods map to no Tonne endpoint, not called: ${outOfScope.join(', ')}`)
        }
    }
    ;(asJson ? console.error : console.log)(`${passed} passed, ${failed} failed`)
    process.exit(failed ? 1 : 0)
})().catch((e) => {
    console.error(e)
    process.exit(2)
})
