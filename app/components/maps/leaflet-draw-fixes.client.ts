/**
 * leaflet-draw 1.0.4 adjustments every map that draws with it needs: no click
 * dropped in fast or headless use, and no focus jump when our own buttons enable a
 * handler. Browser only; maps that draw import leaflet-draw through this module.
 */
import type L from 'leaflet'

// The only import of leaflet-draw, after the module that makes Leaflet set the global L.
import './leaflet-global.client.ts'
import 'leaflet-draw'

/** leaflet-draw internals we adjust (1.0.4, `L.Draw.Polyline`). */
interface PolylineHandlerInternals {
  _disableMarkers: boolean
  _enableNewMarkers(): void
  _onMouseMove(event: { originalEvent: MouseEvent }): void
}

/*
 * Why leaflet-draw dropped clicks here, and the two fixes. The handler adds a
 * corner when a mousedown + mouseup land on its invisible "mouse marker", which it moves
 * under the pointer on every map mousemove.
 * 1. With `preferCanvas` (needed by the screenshot) the pointer is over Leaflet's canvas,
 *    and the canvas forwards mousemove to the map at most every 32 ms. A click soon after
 *    the previous event finds the marker still at the old spot: the mousedown hits the
 *    canvas and the corner is lost. `followPointer` moves the marker on every mousemove.
 * 2. After each corner the handler ignores clicks for 50 ms (`_enableNewMarkers`) to
 *    swallow the mouse half of a touch + mouse pair. Leaflet 1.9 never fires `touchstart`
 *    on the map, so that pair cannot reach it (its `_onTouch` is never called); the pause
 *    only drops quick clicks. One mousedown still arms exactly one mouseup without it.
 */
export function acceptEveryClick(handler: L.Draw.Polyline) {
  const internals = handler as unknown as PolylineHandlerInternals
  internals._enableNewMarkers = function enableAtOnce(this: PolylineHandlerInternals) {
    this._disableMarkers = false
  }
}

export function followPointer(map: L.Map, handler: L.Draw.Polyline) {
  const internals = handler as unknown as PolylineHandlerInternals
  const container = map.getContainer()
  const follow = (event: MouseEvent) => {
    if (handler.enabled()) internals._onMouseMove({ originalEvent: event })
  }
  // Capture: before the canvas sees (and throttles) the event.
  container.addEventListener('mousemove', follow, true)
  return () => container.removeEventListener('mousemove', follow, true)
}

/**
 * leaflet-draw focuses the map container on enable (for its Escape key). Our buttons
 * drive it, so focus stays on the button pressed and a phone doesn't scroll to the map.
 */
export function withoutMapFocus(map: L.Map, run: () => void) {
  const container = map.getContainer()
  container.focus = () => {}
  try {
    run()
  } finally {
    delete (container as Partial<HTMLElement>).focus
  }
}
