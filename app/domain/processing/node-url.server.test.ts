import { expect, test } from 'vitest'

import { endpoint, normaliseNodeUrl, redactIn, redactNodeUrl, restoreRedacted } from './node-url.server.ts'

test('stored: ?token= taken out, the #fragment dropped, the rest of the query and credentials kept', () => {
  expect(normaliseNodeUrl('http://u:p@odm.local:3000/cluster/?key=abc&token=t0k#section')).toEqual({
    url: 'http://u:p@odm.local:3000/cluster?key=abc',
    token: 't0k',
  })
  expect(normaliseNodeUrl('http://odm.local:3000/')).toEqual({ url: 'http://odm.local:3000', token: null })
  expect(normaliseNodeUrl('http://odm.local:3000/?key=1#x')).toEqual({
    url: 'http://odm.local:3000?key=1',
    token: null,
  })
})

test('endpoints go under the node’s path, keep its query, add the token; a fragment never breaks them', () => {
  const node = { url: 'http://u:p@odm.local:3000/cluster?key=abc', token: 't 1' }
  expect(endpoint(node, '/info').href).toBe('http://u:p@odm.local:3000/cluster/info?key=abc&token=t+1')
  expect(
    endpoint({ url: 'http://odm.local:3000#frag', token: null }, '/task/x/output', { line: '3' }).href,
  ).toBe('http://odm.local:3000/task/x/output?line=3')
})

test('shown redacted; *** sent back keeps the stored secret, a new value replaces it', () => {
  const stored = 'http://kestrel:pa55@odm.local:3000/cluster?key=k3y'
  expect(redactNodeUrl(stored)).toBe('http://***:***@odm.local:3000/cluster?key=***')
  expect(restoreRedacted('http://***:***@odm2.local:3000/cluster?key=***', stored)).toBe(
    'http://kestrel:pa55@odm2.local:3000/cluster?key=k3y',
  )
  expect(restoreRedacted('http://odm.local:3000/cluster?key=new', stored)).toBe(
    'http://odm.local:3000/cluster?key=new',
  )
  expect(redactIn(`failed at ${stored}: bad key k3y for kestrel`, { url: stored, token: 'tok3n' })).toBe(
    'failed at http://***:***@odm.local:3000/cluster?key=***: bad key *** for ***',
  )
})
