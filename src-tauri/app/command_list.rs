// The app's commands, named once. The window's typed bindings (`ipc.rs`, through
// tauri-specta) and the `allow-…` permission each command gets (`build.rs`, through
// tauri-build) are both made from this list, so a command cannot be callable without
// a permission, or permitted without a binding. Which window may call which is said in
// `src-tauri/capabilities`.
//
// Included by `build.rs` as well as compiled into the app: macros only.

/// Calls `$then!` with every command's name, in order.
macro_rules! with_commands {
    ($then:ident) => {
        $then![
            enqueue_task,
            list_tasks,
            cancel_task,
            set_paused,
            worker_state,
            approve_call,
            deny_call,
            answer_question,
            hold_approval,
            hide_chat,
            new_chat,
            list_conversations,
            conversation_tasks,
            list_models,
            download_model,
            cancel_download,
            server_program,
            install_server,
            cancel_install,
            pending_approvals,
            send_message,
            retry_task,
            task_activity,
            task_record,
            send_held,
            task_changes,
            undo_task,
            redo_task,
            get_settings,
            save_settings,
            mcp_servers,
            mcp_review,
            set_api_key,
            test_provider,
            detect_local_models,
            finish_onboarding,
            task_metrics,
            skills_view,
            skill_set_enabled,
            skill_trust,
            skill_remove,
            skill_save,
            skill_draft,
            memory_view,
            forget_fact,
            clear_summary,
            remove_job,
            voice_listen,
            hotkey_status
        ]
    };
}
