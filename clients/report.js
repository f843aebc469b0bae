#!/usr/bin/env node
// Groups the failures of a `run.sh --json` report by client version and resource, as
// Markdown: `bash run.sh --json > r.json; node report.js r.json`.
'use strict'
const fs = require('fs')
const report = JSON.parse(fs.readFileSync(process.argv[2] || 0, 'utf8'))
const groups = [
    [/ClientAccount/, 'client accounts'], [/Account/, 'accounts'], [/Portfolio|Selection|Bundle/, 'bundles, portfolios, selections'],
    [/Project/, 'projects'], [/Order/, 'orders'], [/Webhook/, 'webhooks'], [/Estimate/, 'estimates'],
]
const byGroup = new Map()
for (const r of report.results) {
    if (r.ok) continue
    const g = (groups.find(([re]) => re.test(r.method)) || [null, 'every answer'])[1]
    const key = `${r.client} — ${g}`
    if (!byGroup.has(key)) byGroup.set(key, [])
    byGroup.get(key).push(r)
}
for (const [key, rs] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`### ${key}`)
    for (const r of rs) {
        const label = r.label ? ` (${r.label})` : ''
        const http = r.http ? ` \`${r.http}\`` : ''
        console.log(`- ${r.method}${label}${http} → ${r.status === undefined ? '—' : r.status}: ${r.problems.join('; ')}`)
    }
    console.log('')
}
console.log(`${report.passed} passed, ${report.failed} failed`)
