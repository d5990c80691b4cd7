//! The task graph: tasks and their dependencies, validated (unique ids, known
//! dependencies, no cycle) before anything runs.

use std::collections::HashMap;

use crate::error::Error;
use crate::task::Task;

/// A validated task graph.
///
/// [`TaskGraph::new`] checks that ids are unique, that every dependency names a task of
/// the graph and that the dependencies form no cycle; a graph that exists can be run.
#[derive(Clone, Debug)]
pub struct TaskGraph {
    tasks: Vec<Task>,
    /// For each task, the indices of its dependencies (deduplicated, in listed order).
    dependencies: Vec<Vec<usize>>,
    /// For each task, the indices of the tasks that depend on it, in input order.
    dependents: Vec<Vec<usize>>,
}

impl TaskGraph {
    /// Validates `tasks` into a graph.
    ///
    /// Errors: [`Error::DuplicateTask`], [`Error::UnknownDependency`] (with the closest id
    /// as a hint), [`Error::Cycle`] (the first cycle found, walking tasks in input order).
    pub fn new(tasks: Vec<Task>) -> Result<TaskGraph, Error> {
        let mut index = HashMap::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            if index.insert(task.id.as_str(), i).is_some() {
                return Err(Error::DuplicateTask {
                    id: task.id.clone(),
                });
            }
        }
        let mut dependencies = Vec::with_capacity(tasks.len());
        let mut dependents = vec![Vec::new(); tasks.len()];
        for (i, task) in tasks.iter().enumerate() {
            let mut deps: Vec<usize> = Vec::with_capacity(task.dependencies.len());
            for dep in &task.dependencies {
                let Some(&d) = index.get(dep.as_str()) else {
                    return Err(Error::UnknownDependency {
                        task: task.id.clone(),
                        dependency: dep.clone(),
                        suggestion: hooks_core::did_you_mean(
                            dep,
                            tasks.iter().map(|t| t.id.as_str()),
                        ),
                    });
                };
                if !deps.contains(&d) {
                    deps.push(d);
                    dependents[d].push(i);
                }
            }
            dependencies.push(deps);
        }
        let graph = TaskGraph {
            tasks,
            dependencies,
            dependents,
        };
        if let Some(path) = graph.find_cycle() {
            return Err(Error::Cycle { path });
        }
        Ok(graph)
    }

    /// The tasks, in input order.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The number of tasks.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the graph has no task.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// A task by id.
    pub fn get(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// The tasks in an order where each comes after its dependencies; among tasks whose
    /// dependencies are done, input order.
    pub fn topological_order(&self) -> Vec<&Task> {
        let mut remaining: Vec<usize> = self.dependencies.iter().map(Vec::len).collect();
        let mut ready: std::collections::BTreeSet<usize> =
            (0..self.len()).filter(|&i| remaining[i] == 0).collect();
        let mut out = Vec::with_capacity(self.len());
        while let Some(i) = ready.pop_first() {
            out.push(&self.tasks[i]);
            for &d in &self.dependents[i] {
                remaining[d] -= 1;
                if remaining[d] == 0 {
                    ready.insert(d);
                }
            }
        }
        out
    }

    pub(crate) fn dependencies_of(&self, i: usize) -> &[usize] {
        &self.dependencies[i]
    }

    pub(crate) fn dependents_of(&self, i: usize) -> &[usize] {
        &self.dependents[i]
    }

    /// A depth-first search over dependency edges, iterative so that a long chain cannot
    /// overflow the stack. Returns the first cycle found as a path of ids.
    fn find_cycle(&self) -> Option<Vec<String>> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            New,
            OnPath,
            Done,
        }
        let mut mark = vec![Mark::New; self.len()];
        for start in 0..self.len() {
            if mark[start] != Mark::New {
                continue;
            }
            // Each frame is a task and the position of the next dependency to visit.
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            mark[start] = Mark::OnPath;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&dep) = self.dependencies[node].get(*next) {
                    *next += 1;
                    match mark[dep] {
                        Mark::New => {
                            mark[dep] = Mark::OnPath;
                            stack.push((dep, 0));
                        }
                        Mark::OnPath => {
                            let from = stack.iter().position(|&(n, _)| n == dep).unwrap_or(0);
                            let mut path: Vec<String> = stack[from..]
                                .iter()
                                .map(|&(n, _)| self.tasks[n].id.clone())
                                .collect();
                            path.push(self.tasks[dep].id.clone());
                            return Some(path);
                        }
                        Mark::Done => {}
                    }
                } else {
                    mark[node] = Mark::Done;
                    stack.pop();
                }
            }
        }
        None
    }
}
