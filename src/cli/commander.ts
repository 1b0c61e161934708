/**
 * commander, loaded with require: it is a CommonJS package, and importing it as an ES module makes node
 * scan its source for export names first (about 15 ms of a query's start, measured). Every CLI module
 * takes it from here.
 */
import { createRequire } from 'node:module';
import type * as C from 'commander';

const commander = createRequire(import.meta.url)('commander') as typeof C;

export const Command = commander.Command;
export type Command = C.Command;
export const Option = commander.Option;
export type Option = C.Option;
export const CommanderError = commander.CommanderError;
export type CommanderError = C.CommanderError;
