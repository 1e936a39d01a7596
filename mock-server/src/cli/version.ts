import packageJson from '../../package.json' with { type: 'json' };

/** This package's version (`cardrail-mock --version`). */
export const VERSION: string = packageJson.version;
