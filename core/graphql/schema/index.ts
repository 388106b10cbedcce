import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from '../builder';
import './scalars';
import './enums';
import './workspace';
import './apiKey';
import './session';
import './subaccount';
import './credential';
import './riskLimits';
import './market';
import './orderBook';
import './marketTape';
import './marketEvent';
import './executionRecords';
import './order';
import './position';
import './riskAnalytics';
import './complexOrder';
import './deadMansSwitch';
import './event';
import './webhook';
import './settlement';

export const schema = builder.toSchema();

/** The SDL checked in as schema.graphql (see scripts/printSchema.ts and its drift test). */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(schema))}\n`;
