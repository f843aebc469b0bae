// Turns each vendored client's own model types (src/models/*.ts) into one JSON Schema
// document per client version: schemas/<version>.json. Every type that a client method
// declares as its result (see methods.js), and every type those refer to, is under
// `definitions`. Extra properties are allowed (a client's types do not forbid them).
'use strict'
const fs = require('fs')
const path = require('path')
const { createGenerator } = require('ts-json-schema-generator')
const { clientMethods } = require('./methods.js')

fs.mkdirSync(path.join(__dirname, 'schemas'), { recursive: true })
for (const v of process.argv.slice(2).length ? process.argv.slice(2) : ['lune2', 'lune3']) {
    const dir = path.join(__dirname, 'vendor', v)
    const t0 = Date.now()
    const generator = createGenerator({
        path: path.join(dir, 'src', 'models', '*.ts'),
        tsconfig: path.join(dir, 'tsconfig-cjs.json'),
        expose: 'export',
        topRef: true,
        jsDoc: 'none',
        skipTypeCheck: true,
        additionalProperties: true,
    })
    const roots = new Set()
    for (const m of clientMethods(dir)) {
        const t = m.result.match(/^(?:Array<)?(\w+)>?$/)
        if (t && !['any', 'void', 'Blob'].includes(t[1])) roots.add(t[1])
    }
    const definitions = {}
    for (const root of [...roots].sort()) {
        Object.assign(definitions, generator.createSchema(root).definitions)
    }
    // A known fault of 3.x's generated models: the public sustainability page's four
    // `format` discriminators (by_price, by_volume and the three descriptions) collapse into
    // one `PublicSustainabilityPage.format` enum holding only `by_price`, so the type refuses
    // every answer but a priced title with no description — the hosted API's own answers
    // too. The generated enum is widened to the document's values; nothing else is touched.
    if (definitions['PublicSustainabilityPage.format']) {
        definitions['PublicSustainabilityPage.format'] = {
            type: 'string',
            enum: ['by_price', 'by_volume', 'by_equivalent', 'by_supported_goals', 'by_custom_description'],
        }
    }
    const out = path.join(__dirname, 'schemas', `${v}.json`)
    fs.writeFileSync(out, JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', definitions }, null, 1) + '\n')
    console.log(`${out}: ${roots.size} result types, ${Object.keys(definitions).length} definitions in ${Date.now() - t0} ms`)
}
