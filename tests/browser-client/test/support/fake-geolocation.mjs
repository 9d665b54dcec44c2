// The geolocation provider the test servers load (JWT_GEOLOCATION_PROVIDER=<this file>):
// a fixed table, so the device list shows a location without any network. The coordinates let
// the risk signals see London -> Lisbon (about 1,580 km) in seconds as impossible travel.
const PLACES = {
  '81.2.69.142': { city: 'London', country: 'United Kingdom', country_code: 'GB', latitude: 51.5074, longitude: -0.1278 },
  '2.125.160.216': { city: 'Lisbon', country: 'Portugal', country_code: 'PT', latitude: 38.7223, longitude: -9.1393 },
};

export default function fakeGeolocation(ip) {
  return PLACES[ip] ?? null;
}
