import { parseSecretsKeyring } from '@dsched/domain';

// The secrets keyring of tests: every service a test starts (services.ts) and every app a test
// builds seals and opens tenant signing secrets with it. A test key, never a deployment's.
export const TEST_SECRETS_KEY = 'test-1:tBQDC3gyxrXGyZijYa9Xl7paChwgw5ubK5m4yCg92PU=';

export const testKeyring = () => parseSecretsKeyring(TEST_SECRETS_KEY);
