// Lists every method of a vendored client: name, HTTP method, path, declared result type.
// Read from the client's own generated services (src/services/*.ts).
'use strict'
const fs = require('fs')
const path = require('path')

// The T of `Promise<Result<T, ApiError>>` (2.x) or `AsyncResult<SuccessResponse<T>, ApiError>` (3.x).
function resultType(chunk) {
    const m = chunk.match(/\):\s*(?:Promise<\s*Result<|AsyncResult<\s*SuccessResponse<)/)
    if (!m) return undefined
    let depth = 1
    const start = m.index + m[0].length
    let i = start
    for (; i < chunk.length; i++) {
        if (chunk[i] === '<') depth++
        if (chunk[i] === '>' && --depth === 0) break
        if (chunk[i] === ',' && depth === 1) break
    }
    return chunk.slice(start, i).replace(/\s+/g, ' ').trim()
}

function clientMethods(pkgDir) {
    const dir = path.join(pkgDir, 'src', 'services')
    const out = []
    for (const file of fs.readdirSync(dir).sort()) {
        const text = fs.readFileSync(path.join(dir, file), 'utf8')
        for (const chunk of text.split(/\n    public /).slice(1)) {
            const name = chunk.match(/^(\w+)\(/)
            const result = resultType(chunk)
            const req = chunk.match(/method: '(\w+)',\s*url: '([^']+)'/)
            if (!name || result === undefined || !req) throw new Error(`cannot read ${file}: ${chunk.slice(0, 80)}`)
            // `body: data?.someRequest`: the client takes the body wrapped in one named field
            const wrapper = chunk.match(/body: data\?\.(\w+),/)
            out.push({
                service: file.replace(/\.ts$/, ''),
                name: name[1],
                result,
                method: req[1],
                url: req[2],
                bodyWrapper: wrapper ? wrapper[1] : null,
            })
        }
    }
    return out
}
module.exports = { clientMethods }
if (require.main === module) {
    for (const v of ['lune2', 'lune3']) {
        for (const m of clientMethods(path.join(__dirname, 'vendor', v))) console.log(v, m.method.padEnd(6), m.url.padEnd(55), m.name, '->', m.result)
    }
}
