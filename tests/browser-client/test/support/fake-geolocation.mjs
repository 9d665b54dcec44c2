// The geolocation provider the test servers load (JWT_GEOLOCATION_PROVIDER=<this file>):
// a fixed table, so the device list shows a location without any network.
const PLACES = {
  '81.2.69.142': { city: 'London', country: 'United Kingdom', country_code: 'GB' },
  '2.125.160.216': { city: 'Lisbon', country: 'Portugal', country_code: 'PT' },
};

export default function fakeGeolocation(ip) {
  return PLACES[ip] ?? null;
}
