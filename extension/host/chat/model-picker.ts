import type { ChatController } from '../../core/chat/controller';
import type { Logger } from '../../core/log';
import { effortInfo, withModelChoice, type EffortInfo, type ModelChoice } from '../../core/model/model-choice';
import type { Settings } from '../../core/settings/schema';
import { MAX_LISTED_MODELS, type HostMessage } from '../../protocol';
import type { WindowSettings } from '../settings/window-settings';

/**
 * The composer's model picker and effort control over the settings: the chat's model choice for
 * the current session, the settings its requests use with that choice applied, and the picker's
 * list of models. AgentHost relays the chat view's picks here.
 */
export class ModelPicker {
  /** The last settings with the chat's model choice applied (the same object while neither changes). */
  private effectiveCache?: { settings: Settings; choice: ModelChoice; effective: Settings };

  constructor(
    private readonly o: {
      /** The user's and workspace's settings as loaded, their provider and its key. */
      config: Pick<WindowSettings, 'settings' | 'provider' | 'loadApiKey' | 'apiKey'>;
      /** The chat's controller; undefined before it exists (the host's first settings load). */
      chat: () => Pick<ChatController, 'modelChoice' | 'setModelChoice'> | undefined;
      log: Logger;
      /** A pick was stored: the chat's header follows. */
      picked: () => void;
    },
  ) {}

  /** The settings the chat's requests use: the user's and workspace's, with the model and effort picked in the composer for the current session. */
  effective(): Settings {
    const settings = this.o.config.settings;
    // Before the chat exists (the host's first settings load), the settings as loaded.
    const choice = this.o.chat()?.modelChoice;
    if (!choice) return settings;
    const hit = this.effectiveCache;
    if (hit?.settings === settings && hit.choice === choice) return hit.effective;
    const effective = withModelChoice(settings, choice);
    this.effectiveCache = { settings, choice, effective };
    return effective;
  }

  /** The model.name setting, without the composer's pick. */
  configured(): string {
    return this.o.config.settings['model.name'];
  }

  /** The effort control the chat's header shows for the current choice, if the model takes one. */
  effort(): EffortInfo | undefined {
    return effortInfo(this.o.config.settings, this.o.chat()!.modelChoice);
  }

  /**
   * The current session's model (or effort) for its next request, stored with the session in
   * state.db (a new chat starts with the last one picked; no settings file is written).
   * `model: null` goes back to model.name.
   */
  async pick(pick: { model?: string | null; effort?: ModelChoice['effort'] | null }): Promise<void> {
    const chat = this.o.chat()!;
    const next: ModelChoice = { ...chat.modelChoice };
    if (pick.model !== undefined) {
      if (pick.model === null || pick.model === this.o.config.settings['model.name']) delete next.model;
      else next.model = pick.model;
    }
    if (pick.effort !== undefined) {
      if (pick.effort === null) delete next.effort;
      else next.effort = pick.effort;
    }
    await chat.setModelChoice(next);
    this.o.picked();
  }

  /** The picker's list: the provider's models (its /models, or the editor's language models), or why there are none. */
  async pickerModels(): Promise<Extract<HostMessage, { type: 'models.result' }>> {
    try {
      const models = await this.available();
      return { type: 'models.result', models: models.slice(0, MAX_LISTED_MODELS) };
    } catch (e) {
      this.o.log.warn(`could not list the models for the picker: ${(e as Error).message}`);
      return { type: 'models.result', models: [], error: `The provider did not list its models (${(e as Error).message.slice(0, 500)}); type a model name instead.` };
    }
  }

  /** Model ids the provider lists (GET /models, or the editor's language models), for Select Model. */
  async available(): Promise<string[]> {
    const provider = this.o.config.provider();
    if (provider.usesApiKey) await this.o.config.loadApiKey(true);
    return provider.listModels(this.o.config.settings, this.o.config.apiKey);
  }
}
