import { DomainError } from '#app/lib/http/domain-error.ts'
import { expect, test } from 'vitest'

import { parseLandXml } from './landxml.server.ts'

const surface = (faces: string, extra = '') => `<?xml version="1.0"?>
<!-- from a design package -->
<lx:LandXML xmlns:lx="http://www.landxml.org/schema/LandXML-1.2">
  <lx:CoordinateSystem epsgCode='2048' name="Lo19"/>
  <lx:Surfaces><lx:Surface name="A &gt; B">
    <lx:Definition surfType="TIN">
      <lx:Pnts><lx:P id="a">-3750000.5 10.25 101</lx:P><lx:P id="b">-3750000.5 20.25 102</lx:P>
      <lx:P id="c"><![CDATA[-3749990.5 20.25 103]]></lx:P></lx:Pnts>
      <lx:Faces>${faces}</lx:Faces>
    </lx:Definition>
  </lx:Surface></lx:Surfaces>
</lx:LandXML>${extra}`

function refusal(text: string) {
  try {
    parseLandXml(text)
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError)
    return (error as DomainError).message
  }
  throw new Error('accepted')
}

test('points are northing easting elevation (x is the easting); namespaces, CDATA and comments are read', () => {
  const tin = parseLandXml(surface('<lx:F>a b c</lx:F><lx:F i="1">c b a</lx:F>'))
  expect(tin.epsg).toBe(2048)
  expect([...tin.xyz]).toEqual([10.25, -3750000.5, 101, 20.25, -3750000.5, 102, 20.25, -3749990.5, 103])
  // The invisible face (i="1") is a hole: left out.
  expect([...tin.faces]).toEqual([0, 1, 2])
})

test('a second root, trailing text and an unclosed tag are not XML', () => {
  expect(refusal(surface('<lx:F>a b c</lx:F>', '<LandXML/>'))).toMatch(/a second root element \(line 12\)/)
  expect(refusal(surface('<lx:F>a b c</lx:F>', 'text'))).toMatch(/text outside the root element/)
  expect(refusal(surface('<lx:F>a b c</lx:F'))).toMatch(/not well-formed XML: a tag is not closed \(line 9\)/)
  expect(refusal('<LandXML>')).toMatch(/ends before <\/LandXML>/)
})

test('a face of two points, a point given twice and a TIN without faces are refused with the line', () => {
  expect(refusal(surface('<lx:F>a b</lx:F>'))).toBe('The face on line 9 needs three point ids.')
  expect(refusal(surface('<lx:F>a b c</lx:F>').replace('id="b"', 'id="a"'))).toBe(
    'Point a on line 7 is given twice.',
  )
  expect(refusal(surface(''))).toBe('The TIN surface has no faces.')
})
